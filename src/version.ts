// Replaced at build time by build.ts (`define`); falls back to package.json when run from source.
declare const PML_VERSION: string | undefined;

export const version: string =
  typeof PML_VERSION === "string" ? PML_VERSION : (await import("../package.json")).default.version;
