/**
 * The access token of the signed-in user (spec 1 §9: "token kept in local storage,
 * expiry checked from its exp claim").
 *
 * The token lives in `localStorage['fleet.token']`. Reading it decodes the JWT
 * payload (without verifying it: the server does that on every call) and treats a
 * token whose `exp` has passed, or which cannot be decoded, as absent and removes
 * it. Components subscribe through `useSyncExternalStore`, so clearing the token
 * anywhere (a 401, logout, expiry) re-renders the route guard.
 */
import { decodeJwt } from 'jose';

export const TOKEN_STORAGE_KEY = 'fleet.token';

type Listener = () => void;
const listeners = new Set<Listener>();

function notify() {
  for (const listener of listeners) listener();
}

/** Seconds since the epoch at which the token expires, or undefined when unreadable. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

function isLive(token: string): boolean {
  const exp = tokenExpiry(token);
  return exp !== undefined && exp * 1000 > Date.now();
}

/** The stored token when it is still live; an expired or malformed one is removed. */
export function getToken(): string | null {
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  if (token === null) return null;
  if (isLive(token)) return token;
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  return null;
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
  notify();
}

export function clearToken(): void {
  if (localStorage.getItem(TOKEN_STORAGE_KEY) === null) return;
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  notify();
}

/** Subscribes to token changes in this tab and in other tabs (`storage` events). */
export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
