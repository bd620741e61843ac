// One publish to a database registry, in named steps: the input is checked and turned into the next
// version (constructor), then in one transaction the latest version is read, what to do is decided
// (create, unchanged, visibility, new version, or a conflict), and that is written. The store then
// tells other replicas through the change feed (database-store.ts).
import { randomUUID } from "node:crypto";
import type { Identity } from "./api-keys.ts";
import {
  capabilityFqdn,
  checkCapabilityModule,
  codeHash,
  nextVersionTag,
  PublishError,
  splitName,
  versionFqdn,
  type PublishInput,
  type PublishResult,
  type VersionRecord,
  type Visibility,
} from "./capability-record.ts";
import type { Db, Query } from "./database.ts";
import { searchText, SELECT, toRecord, type StoredVersion } from "./rows.ts";

type NextVersion = Omit<VersionRecord, "version_tag">;

/** What publishing over the latest version does (conflicts are thrown instead). */
type Decision = { kind: "unchanged" } | { kind: "visibility" } | { kind: "version"; tag: string };

export class Publication {
  readonly fqdn: string;
  private readonly next: NextVersion;
  /** Private capabilities live in their creator's own scope: a name taken privately by someone
   * else is not taken for you, and publishing never reveals that it exists. */
  private readonly owner: string;
  /** This publish shares what its publisher held privately (adoptOwnPrivate). */
  private adopted = false;

  /** Checks the input (org, module) and builds the version it would add. */
  constructor(
    private readonly db: Db,
    private readonly viewer: Identity,
    private readonly input: PublishInput,
  ) {
    if (input.org && input.org !== viewer.org)
      throw new PublishError(400, "wrong_org", `your API key belongs to org '${viewer.org}', not '${input.org}': publish without "org" or with "org": "${viewer.org}"`);
    this.next = nextVersion(viewer, input);
    checkCapabilityModule({ ...this.next, version_tag: input.version_tag ?? "1.0.0" });
    this.fqdn = capabilityFqdn(this.next);
    this.owner = this.next.visibility === "private" ? viewer.user : "";
  }

  /** Decides and writes in one transaction. `seq`: this publish's entry in the change log (0 when
   * nothing changed). */
  async commit(): Promise<{ result: PublishResult; seq: number }> {
    try {
      return await this.db.transaction(async (tx) => {
        const result = await this.write(tx);
        if (result.status === "unchanged") return { result, seq: 0 };
        // The trigger logged the change; this transaction holds the log's lock, so the last entry is ours.
        return { result, seq: Number((await tx(`SELECT max(seq) AS s FROM registry_changes`))[0].s) };
      });
    } catch (e) {
      // Two publishers racing past the row lock (only possible if a replica runs an older pml)
      // meet the (capability, seq) key: still one winner and one conflict.
      if (!(e instanceof PublishError) && /unique|duplicate key|PRIMARY KEY/i.test((e as Error).message ?? ""))
        throw new PublishError(409, "concurrent_publish", `${this.input.name} was published by someone else at the same moment: fetch the latest version and publish again`);
      throw e;
    }
  }

  private async write(tx: Query): Promise<PublishResult> {
    if (this.owner) await this.refuseOverShared(tx);
    else await this.adoptOwnPrivate(tx);
    let row = await this.current(tx);
    if (!row) {
      const created = await this.create(tx);
      if (created) return created;
      // Someone created it between our read and our insert: treat it as existing from here.
      row = await this.current(tx);
      if (!row) throw new Error("the capability vanished during the publish; try again");
    }
    const latest = toRecord(row);
    return this.apply(tx, latest, this.decide(latest));
  }

  /** The capability's row joined with its latest version, locked for this transaction. */
  private async current(tx: Query): Promise<any> {
    // Lock the capability row first, then read its latest version in a new statement: a
    // locking read over the join would drop the row when a concurrent publish moved latest_seq.
    if (this.db.dialect === "postgres") await tx(`SELECT id FROM capabilities WHERE fqdn = $1 AND owner = $2 FOR UPDATE`, [this.fqdn, this.owner]);
    return (await tx(`${SELECT} AND v.seq = c.latest_seq WHERE c.fqdn = $1 AND c.owner = $2`, [this.fqdn, this.owner]))[0] as any;
  }

  /** One fqdn, one record: a private publish under a name the org already shares would shadow the
   * team's capability for its publisher (and list twice), so it is refused, naming who holds it. */
  private async refuseOverShared(tx: Query): Promise<void> {
    const shared = (await tx(`${SELECT} AND v.seq = c.latest_seq WHERE c.fqdn = $1 AND c.owner = ''`, [this.fqdn]))[0];
    if (!shared) return;
    const r = toRecord(shared);
    throw new PublishError(
      409,
      "name_taken",
      `Capability name '${this.input.name}' already exists in ${r.org}/${r.project} (v${r.version_tag} by ${r.updated_by}, ${new Date(r.updated_at).toISOString()}, visibility ${r.visibility}): use it, add a version with "update": true and "base_version": "${r.version_tag}", or choose another name`,
    );
  }

  /** Sharing a name the publisher holds privately moves that record (its versions kept) rather than
   * adding a second record under the same fqdn; the version decision then applies to it. */
  private async adoptOwnPrivate(tx: Query): Promise<void> {
    const taken = await tx(`SELECT id FROM capabilities WHERE fqdn = $1 AND owner = ''`, [this.fqdn]);
    if (taken.length) return;
    const moved = await tx(`UPDATE capabilities SET owner = '' WHERE fqdn = $1 AND owner = $2 RETURNING id`, [this.fqdn, this.viewer.user]);
    this.adopted = moved.length > 0;
  }

  /** A new capability at its first version; null when another publish created it first. */
  private async create(tx: Query): Promise<PublishResult | null> {
    const { input, viewer, next } = this;
    if (input.base_version)
      throw new PublishError(
        409,
        "no_base",
        `${input.name} does not exist in ${viewer.org}/${input.project} (or you cannot see it), so there is no version ${input.base_version} to update: publish without base_version to create it`,
      );
    const id = randomUUID();
    const tag = input.version_tag ?? "1.0.0";
    const inserted = await tx(
      `INSERT INTO capabilities (id, fqdn, org, project, namespace, action, owner, visibility, latest_seq, created_by, created_at, updated_by, updated_at, search_text)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $9, $10, $11) ON CONFLICT (fqdn, owner) DO NOTHING RETURNING id`,
      [id, this.fqdn, viewer.org, input.project, next.namespace, next.action, this.owner, next.visibility, viewer.user, next.created_at, searchText(next)],
    );
    if (!inserted.length) return null;
    await insertVersion(tx, id, 1, tag, next);
    return this.result("created", id, tag, next.visibility, next.code_hash);
  }

  /** The version decision: what publishing over `latest` means, or the conflict that refuses it. */
  private decide(latest: StoredVersion): Decision {
    const { input, viewer, next } = this;
    if (this.adopted && latest.code_hash === next.code_hash) return { kind: "visibility" };
    if (latest.code_hash === next.code_hash && !input.update) return { kind: "unchanged" };
    // The same code with another shared visibility (narrowing a capability published too widely,
    // or widening it): not a new version, the capability's visibility changes. A private one
    // stays its creator's own (another row), so there is nothing to move.
    if (latest.code_hash === next.code_hash && this.visibilityOver(latest) !== latest.visibility && this.owner === "") {
      if (input.base_version && input.base_version !== latest.version_tag)
        throw new PublishError(
          409,
          "stale_base_version",
          `${input.name} changed since v${input.base_version}: the latest is v${latest.version_tag} by ${latest.updated_by}; fetch it before changing who sees it`,
        );
      return { kind: "visibility" };
    }
    const who = `v${latest.version_tag} by ${latest.updated_by}, ${new Date(latest.updated_at).toISOString()}`;
    if (!input.update)
      throw new PublishError(
        409,
        "name_taken",
        `Capability name '${input.name}' already exists in ${viewer.org}/${input.project} (${who}) with different code: to add a version, publish with "update": true and "base_version": "${latest.version_tag}"; or choose another name`,
      );
    if (!input.base_version)
      throw new PublishError(
        409,
        "base_version_required",
        `an update must say which version it replaces: add "base_version": "${latest.version_tag}" (the latest, ${who}) if your change is based on it`,
      );
    if (input.base_version !== latest.version_tag)
      throw new PublishError(
        409,
        "stale_base_version",
        `${input.name} changed since v${input.base_version}: the latest is ${who}. Fetch it (GET /mcp/${this.fqdn}), merge your change, and publish again with "base_version": "${latest.version_tag}"`,
      );
    const tag = nextVersionTag(latest, next, input.version_tag);
    return tag ? { kind: "version", tag } : { kind: "unchanged" };
  }

  /** Writes what `decide` chose. */
  private async apply(tx: Query, latest: StoredVersion, decision: Decision): Promise<PublishResult> {
    const { viewer, next } = this;
    const now = next.updated_at;
    switch (decision.kind) {
      case "unchanged":
        return this.result("unchanged", latest.id, latest.version_tag, latest.visibility, latest.code_hash);
      case "visibility":
        await tx(`UPDATE capabilities SET visibility = $2, updated_by = $3, updated_at = $4 WHERE id = $1`, [latest.id, this.visibilityOver(latest), viewer.user, now]);
        return this.result("visibility", latest.id, latest.version_tag, this.visibilityOver(latest), latest.code_hash);
      case "version": {
        const seq = latest.seq + 1;
        await insertVersion(tx, latest.id, seq, decision.tag, next);
        await tx(`UPDATE capabilities SET latest_seq = $2, updated_by = $3, updated_at = $4, visibility = $5, search_text = $6 WHERE id = $1`, [
          latest.id,
          seq,
          viewer.user,
          now,
          this.visibilityOver(latest),
          searchText(next),
        ]);
        return this.result("version", latest.id, decision.tag, this.visibilityOver(latest), next.code_hash);
      }
    }
  }

  /** Who sees `latest` after this publish: the visibility asked for, else what it had (a shared
   * capability's new version without "visibility" neither widens nor narrows it). */
  private visibilityOver(latest: StoredVersion): Visibility {
    return this.input.visibility ?? (latest.visibility === "private" ? this.next.visibility : latest.visibility);
  }

  private result(status: PublishResult["status"], id: string, tag: string, visibility: Visibility, hash: string): PublishResult {
    return {
      status,
      id,
      name: this.input.name,
      fqdn: this.fqdn,
      version_fqdn: versionFqdn({ ...this.next, code_hash: hash }),
      version: tag,
      visibility,
    };
  }
}

/** The version the input would add, by `viewer`, now. */
function nextVersion(viewer: Identity, input: PublishInput): NextVersion {
  const { namespace, action } = splitName(input.name);
  const now = Date.now();
  return {
    id: "",
    org: viewer.org,
    project: input.project,
    namespace,
    action,
    visibility: input.visibility ?? (viewer.org ? "org" : "private"),
    code: input.code,
    code_hash: codeHash(input.code),
    description: input.description ?? null,
    intent: input.intent ?? null,
    parameters_schema: input.parameters_schema ?? null,
    default_args: input.default_args ?? null,
    tools_used: input.tools_used ?? [],
    routing: input.routing ?? null,
    tags: input.tags ?? [],
    change_summary: input.change_summary ?? null,
    created_by: viewer.user,
    created_at: now,
    updated_by: viewer.user,
    updated_at: now,
  };
}

async function insertVersion(tx: Query, id: string, seq: number, tag: string, r: NextVersion): Promise<void> {
  const json = (x: unknown) => (x == null ? null : JSON.stringify(x));
  await tx(
    `INSERT INTO capability_versions (capability_id, seq, version_tag, code, code_hash, description, intent, parameters_schema, default_args, tools_used, routing, tags, change_summary, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      id,
      seq,
      tag,
      r.code,
      r.code_hash,
      r.description,
      r.intent,
      json(r.parameters_schema),
      json(r.default_args),
      JSON.stringify(r.tools_used),
      r.routing,
      JSON.stringify(r.tags),
      r.change_summary,
      r.updated_by,
      r.updated_at,
    ],
  );
}
