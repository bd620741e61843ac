// The files and folders a request names ("count the words in drafts/intro.md", "what is in
// photos/2024?"). Strict, because a request naming none is served by code that calls no tool (kind-fit.ts):
// "km/h", "and/or", "27/63", "a/e/i/o/u" and URLs are not paths.

/** An extension a file has ("notes.txt", "deploy.sh"). */
const FILE_EXTENSION = /\.(?:txt|md|json|csv|tsv|log|ya?ml|toml|ini|cfg|conf|env|xml|html?|css|sql|py|ts|js|mjs|sh|rb|go|rs|java|cpp|lock|pdf|png|jpe?g|gif|svg|zip)$/i;
/** Where a folder is named ("in app/auth", "under photos/2024"). */
const AT_FOLDER = /^(?:in|inside|under|within|from|of|at|into)$/i;

/** At the end of a path, any extension of letters says a file ("conf/service.properties"). */
const PATH_EXTENSION = /\.[a-z]{1,12}$/i;

/** A name with a letter, and a file's extension (checked apart: one pattern for both backtracks on a long word). */
function isFileName(w: string, inPath: boolean): boolean {
  const ext = (inPath ? PATH_EXTENSION : FILE_EXTENSION).exec(w);
  const name = ext ? w.slice(0, ext.index) : "";
  return /^[\w.-]+$/.test(name) && /[a-z]/i.test(name);
}

/** A path of names (two letters at least, or a number: "photos/2024"), one of them words. */
function isPathOfNames(parts: readonly string[]): boolean {
  const named = parts.filter(Boolean);
  return parts.length >= 2 && named.length > 0 && named.every((p) => (p.length >= 2 && /[a-z]/i.test(p)) || /^\d+$/.test(p)) && named.some((p) => /[a-z]{2}/i.test(p));
}

/**
 * How many files (a name with an extension, alone or ending a path) and folders (a path ending in
 * "/", or a path of names after "in", "under"…) the request names.
 */
export function namedPaths(query: string): { files: number; folders: number } {
  const ws = query.split(/\s+/).map((w) => w.replace(/^[('"`]+|[)'"`,;:?!]+$|\.$/g, ""));
  let files = 0;
  let folders = 0;
  ws.forEach((w, i) => {
    if (!w || w.includes("://")) return;
    const parts = w.split("/");
    if (isFileName(parts.at(-1)!, parts.length > 1)) files++;
    else if (isPathOfNames(parts) && (w.endsWith("/") || AT_FOLDER.test(ws[i - 1] ?? ""))) folders++;
  });
  return { files, folders };
}
