#!/usr/bin/env bun
import { defineCommand, runMain } from "citty";
import { commands } from "./cli/index.ts";
import { version } from "./version.ts";

const main = defineCommand({
  meta: {
    name: "pml",
    version,
    description: "Procedural Memory Layer: one MCP server for every tool your agent needs",
  },
  subCommands: commands,
});

await runMain(main);
