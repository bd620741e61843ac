// Guest-side glue, evaluated first in every sandbox context. It is called with the two host
// functions and returns the entry points the host calls; nothing is put on globalThis, so guest
// code reaches the host functions only through the `mcp` proxy and `ctx` it is handed.
// Everything that crosses the boundary is a string: JSON in, "<tag><JSON>" out, where the tag is
// V (value), U (undefined), E (error description) or R (result not serialisable).
export const PRELUDE = String.raw`(function (host, hostSync) {
  "use strict";
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze;
  const hasOwn = Object.prototype.hasOwnProperty, ObjectProto = Object.prototype, S = String;
  const ProxyC = Proxy, MapC = Map;
  // Shared memory is the one door to timing attacks and cross-agent channels; nothing here needs it.
  delete globalThis.SharedArrayBuffer;
  delete globalThis.Atomics;

  function callHost(op, payload) {
    let text;
    try {
      text = stringify(payload === undefined ? null : payload);
    } catch (e) {
      throw new TypeError("arguments for " + op + " are not JSON-serialisable: " + S(e && e.message));
    }
    return host(op, text === undefined ? "null" : text).then((s) => (s === undefined ? undefined : parse(s)));
  }

  const ignored = (k) => typeof k !== "string" || k === "then" || k === "toJSON";
  const namespaces = new MapC();
  const mcp = new ProxyC(freeze({}), {
    get(_, ns) {
      if (ignored(ns)) return undefined;
      let proxy = namespaces.get(ns);
      if (!proxy) {
        proxy = new ProxyC(freeze({}), {
          get(_, action) {
            if (ignored(action)) return undefined;
            const tool = ns + ":" + action;
            return (args) => callHost("tool", { tool, args: args === undefined ? {} : args });
          },
        });
        namespaces.set(ns, proxy);
      }
      return proxy;
    },
  });

  function makeCtx(env, ops) {
    const envProxy = new ProxyC(freeze(env || {}), {
      get(target, key) {
        if (typeof key === "string" && !hasOwn.call(target, key) && !(key in ObjectProto) && !ignored(key)) {
          try { hostSync("env", key); } catch (e) {}
        }
        return target[key];
      },
    });
    const ctx = { env: envProxy, mcp };
    for (const name of ops || []) {
      if (name === "fetch") {
        ctx.fetch = (url, init) => callHost("fetch", Object.assign({}, init || {}, { url: S(url) }));
        continue;
      }
      const parts = name.split(".");
      let at = ctx;
      for (let i = 0; i < parts.length - 1; i++) at = at[parts[i]] || (at[parts[i]] = {});
      at[parts[parts.length - 1]] = (args) => callHost(name, args === undefined ? {} : args);
    }
    for (const key of Object.keys(ctx)) if (key !== "env" && key !== "mcp") freeze(ctx[key]);
    return freeze(ctx);
  }

  function describe(e) {
    try {
      if (e !== null && typeof e === "object" && "message" in e) {
        // A plain object thrown with a message has no name: it reads as an Error, not "undefined: ...".
        return stringify({ name: e.name === undefined ? "Error" : S(e.name), message: S(e.message), stack: S(e.stack || ""), line: e.lineNumber });
      }
      return stringify({ name: "Error", message: "threw a non-Error value: " + S(e) });
    } catch (x) {
      return '{"name":"Error","message":"threw a value that cannot be printed"}';
    }
  }

  async function settle(run) {
    let value;
    try {
      value = await run();
    } catch (e) {
      return "E" + describe(e);
    }
    if (value === undefined) return "U";
    let text;
    try {
      text = stringify(value);
    } catch (e) {
      return "R" + stringify(S(e && e.message));
    }
    return text === undefined ? "U" : "V" + text;
  }

  return {
    callExport(fn, payload) {
      const p = parse(payload);
      return settle(() => fn(p.args, makeCtx(p.env, p.ops)));
    },
    callCode(fn, payload) {
      const p = parse(payload);
      return settle(() => fn(mcp, p.args));
    },
  };
})`;
