import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "serve", description: "TODO" },
  run() {
    throw new Error("not yet");
  },
});
