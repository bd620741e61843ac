export async function serveStdio() {}
