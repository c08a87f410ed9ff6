// The few parts of the ustar format (POSIX.1-1988) that backups need: regular files and folders,
// names up to 255 bytes. PGlite's dumpDataDir writes this format; `tar` reads what we write.

const BLOCK = 512;

export type TarEntry = { name: string; type: "file" | "directory"; data: Uint8Array; mode: number };
/** An entry to write: a file's bytes may come in pieces (no copy of a large file). */
export type TarInput = Omit<TarEntry, "data"> & { data: Uint8Array | readonly Uint8Array[] };

/** A refusal to read a tarball, with what is wrong with it. */
export class TarError extends Error {
  override name = "TarError";
}

const ascii = new TextEncoder();
const text = new TextDecoder();

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return text.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, offset: number, length: number, what: string): number {
  const s = field(header, offset, length).trim();
  if (s === "") return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(`the ${what} of an entry is not a number ("${s}")`);
  return Number.parseInt(s, 8);
}

function checksum(header: Uint8Array): number {
  let sum = 0;
  // The checksum field itself (148–155) counts as spaces.
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum;
}

/** What a header says; throws TarError when it is damaged or of a kind not handled here. */
function parseHeader(header: Uint8Array, index: number): Omit<TarEntry, "data"> & { size: number } {
  if (octal(header, 148, 8, "checksum") !== checksum(header))
    throw new TarError(`entry ${index} is damaged (checksum)`);
  const prefix = field(header, 345, 155);
  const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
  const size = octal(header, 124, 12, "size");
  const mode = octal(header, 100, 8, "mode");
  const flag = String.fromCharCode(header[156] ?? 0);
  if (flag === "5") return { name, type: "directory", mode, size: 0 };
  if (flag === "0" || flag === "\0") return { name, type: "file", mode, size };
  throw new TarError(`${name} is neither a file nor a folder (type "${flag}")`);
}

export type TarHeader = ReturnType<typeof parseHeader>;

/**
 * Reads a tarball as it streams past, in chunks of any size: `entry` for each header, `data` for
 * each piece of its contents, `end` when they are complete. Memory: one header.
 */
export class TarReader {
  private header = new Uint8Array(BLOCK);
  private headerBytes = 0;
  private current: TarHeader | undefined;
  private left = 0;
  private pad = 0;
  private count = 0;
  private isDone = false;

  constructor(
    private readonly on: {
      entry?: (h: TarHeader) => void;
      data?: (h: TarHeader, chunk: Uint8Array) => void;
      end?: (h: TarHeader) => void;
    },
  ) {}

  write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.isDone) {
      if (this.current) {
        const n = Math.min(this.left, chunk.length - at);
        if (n > 0) this.on.data?.(this.current, chunk.subarray(at, at + n));
        at += n;
        this.left -= n;
        if (this.left === 0) this.endEntry();
      } else if (this.pad > 0) {
        const n = Math.min(this.pad, chunk.length - at);
        at += n;
        this.pad -= n;
      } else {
        const n = Math.min(BLOCK - this.headerBytes, chunk.length - at);
        this.header.set(chunk.subarray(at, at + n), this.headerBytes);
        this.headerBytes += n;
        at += n;
        if (this.headerBytes < BLOCK) continue;
        this.headerBytes = 0;
        if (this.header.every((b) => b === 0)) {
          this.isDone = true;
          continue;
        }
        const h = parseHeader(this.header, ++this.count);
        this.current = h;
        this.left = h.size;
        this.pad = (BLOCK - (h.size % BLOCK)) % BLOCK;
        this.on.entry?.(h);
        if (h.size === 0) this.endEntry();
      }
    }
  }

  private endEntry() {
    const h = this.current;
    this.current = undefined;
    if (h) this.on.end?.(h);
  }

  /** Throws unless the end marker came (a tarball cut short). */
  finish(): void {
    if (this.current) throw new TarError(`${this.current.name} is cut short`);
    if (!this.isDone) throw new TarError("the archive ends before its end marker");
  }
}

/** The entries of an uncompressed tarball, checked (checksums, sizes, the end marker). */
export function readTar(tarball: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  for (;;) {
    if (at + BLOCK > tarball.length) throw new TarError("the archive ends before its end marker");
    const header = tarball.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return entries;
    const { size, ...h } = parseHeader(header, entries.length + 1);
    at += BLOCK;
    if (at + size > tarball.length) throw new TarError(`${h.name} is cut short`);
    entries.push({ ...h, data: tarball.subarray(at, at + size) });
    at += Math.ceil(size / BLOCK) * BLOCK;
  }
}

const sizeOf = (data: TarInput["data"]) =>
  data instanceof Uint8Array ? data.length : data.reduce((n, piece) => n + piece.length, 0);

function header(entry: TarInput, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const put = (s: string, offset: number, length: number) => {
    const b = ascii.encode(s);
    if (b.length > length) throw new TarError(`"${s}" is too long for a tar header`);
    h.set(b, offset);
  };
  const num = (n: number, offset: number, length: number) =>
    put(`${n.toString(8).padStart(length - 1, "0")}\0`, offset, length);
  let name = entry.name;
  let prefix = "";
  if (ascii.encode(name).length > 100) {
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0) throw new TarError(`"${name}" is too long for a tar entry`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  put(name, 0, 100);
  num(entry.mode, 100, 8);
  num(0, 108, 8);
  num(0, 116, 8);
  num(entry.type === "file" ? sizeOf(entry.data) : 0, 124, 12);
  num(mtime, 136, 12);
  put(entry.type === "file" ? "0" : "5", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put(prefix, 345, 155);
  put(`${checksum(h).toString(8).padStart(6, "0")}\0 `, 148, 8);
  return h;
}

/** An uncompressed tarball of `entries`, as the pieces to write one after another. */
export function* writeTar(entries: TarInput[], mtime = Math.floor(Date.now() / 1000)): Generator<Uint8Array> {
  for (const entry of entries) {
    yield header(entry, mtime);
    const size = sizeOf(entry.data);
    if (entry.type === "file" && size > 0) {
      if (entry.data instanceof Uint8Array) yield entry.data;
      else yield* entry.data;
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (pad) yield new Uint8Array(pad);
    }
  }
  // The end marker: two empty blocks.
  yield new Uint8Array(BLOCK * 2);
}
