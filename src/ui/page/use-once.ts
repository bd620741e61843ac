// An action's request, sent once: while it is on its way, a second click, an Enter in its form or
// another button of the same group sends nothing. A double-clicked Rename sent the rename twice,
// and the second, for a name the first had just moved, was answered 400 though the rename had
// taken effect (and the page showed that refusal).
import { useRef, useState } from "preact/hooks";

export interface Once {
  /** An action of the group is on its way (its buttons are disabled). */
  busy: boolean;
  /** Sends the action unless one of the group is still on its way. */
  run(send: () => Promise<unknown>): void;
}

export function useOnce(): Once {
  // A ref, not only state: the second click of a double click comes before a re-render.
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  return {
    busy,
    run(send) {
      if (inFlight.current) return;
      inFlight.current = true;
      setBusy(true);
      void send().finally(() => {
        inFlight.current = false;
        setBusy(false);
      });
    },
  };
}
