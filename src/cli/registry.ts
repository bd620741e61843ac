import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "registry", description: "TODO" },
  run() {
    throw new Error("not yet");
  },
});
