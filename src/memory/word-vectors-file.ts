// The embedded word vectors' path, in a module of its own: discover imports it lazily and a source
// checkout that was never built (no generated file) fails only this import, not discover.
import file from "./generated/word-vectors.bin" with { type: "file" };

export default file as string;
