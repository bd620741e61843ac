// What a capability's own words say, as the rules of kind-fit.ts read them: whether they are about
// files or folders, count or measure, which units, aggregates and ends they name, the operation its
// name starts with. None of it depends on the request, so discover keeps one per capability
// (discover-state.ts) and each part is read when a rule first needs it: a capability is a candidate
// of many requests, and reading its words again for each was a tenth of a discover at 10k records.
import { namedOpposite, oppositesOf, ordersOf, sideStems } from "./opposites.ts";
import { AGGREGATES, ASKS_AMOUNT, FILE_WORDS, FOLDER_WORDS, FORMATS, kindsOf, measures, namedIn, ONE_FILE, OPERATIONS, POSITIONS, TEXT_UNITS } from "./kind-words.ts";

/** A capability's text is read this far (what it takes is said at the start). */
export const CAPABILITY_CHARS = 300;

/** `fs:csv_to_json` -> "csv to json". */
export const actionWords = (name: string) =>
  name
    .slice(name.indexOf(":") + 1)
    .replace(/_to_/, " to ")
    .replace(/_/g, " ");

const NONE: ReadonlySet<string> = new Set();
const some = (set: Set<string>): ReadonlySet<string> => (set.size ? set : NONE);

/** Kept for each capability a request has asked of (10k at most): it holds no text of its own
 * (the words are made again for each part read, a few times per capability), only the answers. */
export class CapabilityWords {
  #files?: boolean;
  #folders?: boolean;
  #oneFile?: boolean;
  #measures?: boolean;
  #amount?: boolean;
  #formats?: ReadonlySet<string>;
  #operation?: string | null;
  #sides?: ReadonlySet<string>;
  #orders?: ReadonlySet<string>;
  // One field per group rules ask of, not a Map per capability: read ahead, 10k capabilities held
  // 10k Maps.
  #textUnits?: ReadonlySet<string>;
  #aggregates?: ReadonlySet<string>;
  #positions?: ReadonlySet<string>;

  constructor(
    private readonly name: string,
    private readonly text: string,
  ) {}

  /** Its name's action and the start of its text. */
  get words(): string {
    return `${actionWords(this.name)} ${this.text.slice(0, CAPABILITY_CHARS)}`;
  }

  get files(): boolean {
    return (this.#files ??= FILE_WORDS.test(this.words));
  }

  get folders(): boolean {
    return (this.#folders ??= FOLDER_WORDS.test(this.words));
  }

  get oneFile(): boolean {
    return (this.#oneFile ??= ONE_FILE.test(this.words));
  }

  /** It counts or measures something (kind-words.ts measures). */
  get measures(): boolean {
    return (this.#measures ??= measures(this.words));
  }

  /** Its words say it gives an amount ("count the words"). */
  get amount(): boolean {
    return (this.#amount ??= ASKS_AMOUNT.test(this.words));
  }

  /** The file formats its words name. */
  get formats(): ReadonlySet<string> {
    return (this.#formats ??= some(new Set([...kindsOf(this.words)].filter((k) => FORMATS.has(k)))));
  }

  /** The operation (OPERATIONS) its name's action starts with. */
  get operation(): string | undefined {
    this.#operation ??= OPERATIONS.get(/^[a-z]+/i.exec(actionWords(this.name))?.[0]?.toLowerCase() ?? "") ?? null;
    return this.#operation ?? undefined;
  }

  /** The stems of its words (search.ts terms) that take a side, for the opposites a request names
   * (opposites.ts): not those whose opposite its words hold too ("from an old value to a new one"). */
  get sides(): ReadonlySet<string> {
    if (this.#sides) return this.#sides;
    const stems = sideStems(this.words);
    return (this.#sides = some(new Set([...stems].filter((s) => namedOpposite(s) && !oppositesOf(s).some((o) => stems.has(o))))));
  }

  /** The orders its words name ("from smallest to largest": opposites.ts ordersOf). */
  get orders(): ReadonlySet<string> {
    return (this.#orders ??= ordersOf(this.words));
  }

  /** Every part read now (read-ahead.ts), not when a rule first needs it. */
  readAll(): void {
    void [this.files, this.folders, this.oneFile, this.measures, this.amount, this.formats, this.operation, this.sides, this.orders];
    for (const group of [TEXT_UNITS, AGGREGATES, POSITIONS]) this.named(group);
  }

  /** The values of `group` (TEXT_UNITS, AGGREGATES, POSITIONS: kept; another is read each time) its words name. */
  named(group: ReadonlyMap<string, string>): ReadonlySet<string> {
    if (group === TEXT_UNITS) return (this.#textUnits ??= this.#namedIn(group));
    if (group === AGGREGATES) return (this.#aggregates ??= this.#namedIn(group));
    if (group === POSITIONS) return (this.#positions ??= this.#namedIn(group));
    return this.#namedIn(group);
  }

  #namedIn(group: ReadonlyMap<string, string>): ReadonlySet<string> {
    return some(namedIn(group, this.words));
  }
}
