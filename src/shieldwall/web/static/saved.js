// The battles this browser takes part in, with their side tokens (kept in localStorage only).

const KEY = "shieldwall.games";

export function myGames() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function remember(entry) {
  const all = myGames().filter((g) => g.id !== entry.id);
  all.unshift({ ...entry, at: entry.at || new Date().toISOString() });
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 50)));
}

export function find(id) {
  return myGames().find((g) => g.id === id) || null;
}

export function forget(id) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => g.id !== id)));
}
