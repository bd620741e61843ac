// Simple syntax highlighting of a capability's code: the text is cut into tokens and each is
// rendered as a text node inside a span (Preact escapes it); no stored text ever becomes markup.
const TOKEN =
  /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\b(async|await|break|case|catch|const|continue|default|do|else|export|false|finally|for|function|if|in|let|new|null|of|return|switch|this|throw|true|try|typeof|undefined|var|while)\b|(\b\d+(?:\.\d+)?\b)/g;

const CLASSES = ["", "c-comment", "c-string", "c-keyword", "c-number"];

export function Code({ code }: { code: string }) {
  const parts: preact.JSX.Element[] = [];
  let last = 0;
  let key = 0;
  for (const m of code.matchAll(TOKEN)) {
    if (m.index > last) parts.push(<span key={key++}>{code.slice(last, m.index)}</span>);
    const group = m.slice(1).findIndex((g) => g !== undefined) + 1;
    parts.push(
      <span key={key++} class={CLASSES[group]}>
        {m[0]}
      </span>,
    );
    last = m.index + m[0].length;
  }
  if (last < code.length) parts.push(<span key={key++}>{code.slice(last)}</span>);
  return (
    <pre class="code" data-testid="code">
      {parts}
    </pre>
  );
}
