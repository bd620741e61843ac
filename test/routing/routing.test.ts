import { describe, expect, test } from "bun:test";
import { routeCapability, routeTool } from "../../src/routing/route.ts";

describe("routing", () => {
  test("tools that touch the machine run locally", () => {
    for (const ns of ["filesystem", "shell", "process", "git", "sqlite", "postgres", "docker", "kubernetes", "ssh", "database", "memory"]) {
      expect(routeTool(`${ns}:x`)).toBe("local");
    }
  });
  test("API-backed tools run in the cloud", () => {
    for (const ns of ["tavily", "exa", "brave_search", "github", "slack", "fetch", "pml"]) expect(routeTool(`${ns}:x`)).toBe("cloud");
    expect(routeTool("brave-search:web")).toBe("cloud");
    expect(routeTool("GitHub:list")).toBe("cloud");
    expect(routeTool("tavily__search")).toBe("cloud");
  });
  test("unknown -> local", () => {
    expect(routeTool("my_private:thing")).toBe("local");
    expect(routeTool("weird")).toBe("local");
  });
  test("capabilities", () => {
    expect(routeCapability(["tavily:search", "filesystem:write_file"])).toBe("local");
    expect(routeCapability(["tavily:search", "github:list"])).toBe("cloud");
    expect(routeCapability(["tavily:search", "unknown:x"])).toBe("local");
    expect(routeCapability([])).toBe("cloud");
    expect(routeCapability(["filesystem:read"], "cloud")).toBe("cloud");
    expect(routeCapability(["tavily:search"], "local")).toBe("local");
  });
});
