// The `pml ui` page: four views behind tabs, routed by the URL's hash (#overview, #activity,
// #capabilities, #cap/<name>, #approvals).
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Activity } from "./activity.tsx";
import { Approvals } from "./approvals.tsx";
import { CapabilityPage } from "./capability.tsx";
import { Capabilities } from "./capabilities.tsx";
import { Overview } from "./overview.tsx";

// The launch token has done its work (the server set the cookie): keep it out of history and bookmarks.
if (location.search.includes("token=")) history.replaceState(null, "", `/${location.hash}`);

const TABS = [
  ["overview", "Overview"],
  ["activity", "Activity"],
  ["capabilities", "Capabilities"],
  ["approvals", "Approvals"],
] as const;

function useHash(): string {
  const [hash, setHash] = useState(location.hash.slice(1) || "overview");
  useEffect(() => {
    const on = () => setHash(location.hash.slice(1) || "overview");
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return hash;
}

function App() {
  const hash = useHash();
  const cap = hash.startsWith("cap/") ? decodeURIComponent(hash.slice(4)) : undefined;
  const tab = cap ? "capabilities" : hash;
  return (
    <>
      <header>
        <strong>pml</strong>
        <nav>
          {TABS.map(([id, label]) => (
            <a key={id} href={`#${id}`} class={tab === id ? "active" : ""} data-testid={`tab-${id}`}>
              {label}
            </a>
          ))}
        </nav>
      </header>
      <main>
        {cap !== undefined ? (
          <CapabilityPage name={cap} />
        ) : tab === "activity" ? (
          <Activity />
        ) : tab === "capabilities" ? (
          <Capabilities />
        ) : tab === "approvals" ? (
          <Approvals />
        ) : (
          <Overview />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
