import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "init", description: "TODO" },
  run() {
    throw new Error("not yet");
  },
});
