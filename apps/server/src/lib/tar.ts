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

/** The entries of an uncompressed tarball, checked (checksums, sizes, the end marker). */
export function readTar(tarball: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  for (;;) {
    if (at + BLOCK > tarball.length) throw new TarError("the archive ends before its end marker");
    const header = tarball.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return entries;
    if (octal(header, 148, 8, "checksum") !== checksum(header))
      throw new TarError(`entry ${entries.length + 1} is damaged (checksum)`);
    const prefix = field(header, 345, 155);
    const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    const size = octal(header, 124, 12, "size");
    const mode = octal(header, 100, 8, "mode");
    const flag = String.fromCharCode(header[156] ?? 0);
    at += BLOCK;
    if (at + size > tarball.length) throw new TarError(`${name} is cut short`);
    if (flag === "5") entries.push({ name, type: "directory", data: new Uint8Array(0), mode });
    else if (flag === "0" || flag === "\0")
      entries.push({ name, type: "file", data: tarball.subarray(at, at + size), mode });
    else throw new TarError(`${name} is neither a file nor a folder (type "${flag}")`);
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
