// Whether a request is about pml's own records (capabilities, their versions and names: what dns,
// meta and learn serve) or a task that happens to use one of their words ("rename Acme to Globex
// in contract.md", "the version in package.json"): pml's own tools step back for a task (hybrid.ts).
import { expect, test } from "bun:test";
import { aboutMemory } from "../../src/memory/hybrid.ts";

const ABOUT = [
  "show the history of versions of a capability",
  "rename a capability",
  "what versions of fs:read_json are there",
  "rename fs:read_json to fs:load_json",
  "who made util:parse_cron",
  "list the learned capabilities in this project",
  "roll fs:read_json back to its previous version",
  "which pml servers are running",
  "look up the record of util:slugify",
  "send feedback that the last capability failed",
  "fork the team's capability into my namespace",
  "give fs:read_json an alias",
];

const TASKS = [
  "rename Acme to Globex all through contract.md",
  "web-safe lowercase-dashed version of 'Q3 Results: Up 12%'",
  "bump the version in package.json",
  "show the git history of README.md",
  "rename the files in photos/ to lowercase",
  "start a local web server on port 8080",
  "record the temperature readings into log.csv",
  "look up the DNS records of example.com",
  "what's the latest version of lodash on npm",
  "convert this audio recording to mp3",
];

test("a request about capabilities, their versions or names is about memory", () => {
  expect(ABOUT.filter((q) => !aboutMemory(q))).toEqual([]);
});

test("a task that uses one of those words in passing is not", () => {
  expect(TASKS.filter((q) => aboutMemory(q))).toEqual([]);
});
