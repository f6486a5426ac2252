// Bytes kept or sent to another thread in a buffer of their own. Node's small Buffers are views on a
// shared 64 KB pool (Buffer.poolSize), and zlib's output is a view on its 64 KB output chunk: a kept 3 KB
// brotli page held 64 KB alive, and a structured clone (postMessage) copies a view's whole buffer — a
// 1 KB answer crossed to the front thread as 64 KB.

/** `bytes` as a Buffer that is its whole ArrayBuffer: `bytes` themselves when they are, else a copy. */
export function ownBytes(bytes: Uint8Array): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    return Buffer.from(bytes.buffer, 0, bytes.byteLength);
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  own.set(bytes);
  return own;
}

/**
 * `bytes` for postMessage, with what to hand over (`transfer`): a copy made here is given away rather
 * than copied again by the clone; bytes that are their whole buffer are cloned (the sender keeps them).
 */
export function sendable(bytes: Uint8Array, transfer: ArrayBuffer[]): Uint8Array {
  const own = ownBytes(bytes);
  if (own.buffer !== bytes.buffer) transfer.push(own.buffer as ArrayBuffer);
  return own;
}

/** A string's UTF-8 bytes to keep: in a buffer of their own (not a view holding the 64 KB pool). */
export function keptText(text: string): Buffer {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  own.write(text);
  return own;
}
