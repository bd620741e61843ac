// Durations in messages a user reads ("did not answer within 1.5 s").

/** `300 ms` under a second, else seconds to one decimal: `1.5 s`, `60 s`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
