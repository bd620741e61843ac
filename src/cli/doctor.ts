import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "doctor", description: "TODO" },
  run() {
    throw new Error("not yet");
  },
});
