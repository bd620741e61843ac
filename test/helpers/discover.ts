// discover's answer as tests read it: one line per result (discover-answer.ts answerText), read back
// by the same module's reader, each result with its id and kind (from the tool name when the line
// leaves them out), so tests compare ids. Untyped: tests look at whatever fields a line says.
import { readAnswer } from "../../src/gateway/tools/pml/discover-answer.ts";

export const parseDiscover = (text: string): any => readAnswer(text);
