import type { RequestHandler } from 'express';

const RATE = 16_000;

/** Two bell-like notes (E6 then A6), fading: 0.7 s of 16-bit mono PCM in a WAV file, made once when first asked for. */
function renderChime(): Buffer {
  const notes = [
    { hz: 1318.5, start: 0, length: 0.35 },
    { hz: 1760, start: 0.18, length: 0.52 },
  ];
  const samples = Math.round(RATE * 0.7);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / RATE;
    let value = 0;
    for (const note of notes) {
      const since = t - note.start;
      if (since >= 0 && since < note.length) value += Math.sin(2 * Math.PI * note.hz * since) * Math.exp((-5 * since) / note.length) * 0.4;
    }
    pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value)) * 32_767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16); // PCM format chunk
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

let chime: Buffer | undefined;

/** The "money arrived" chime the display and Receive play, served by the service (no sound from another origin). */
export const serveChime: RequestHandler = (_req, res) => {
  chime ??= renderChime();
  res.set({ 'Content-Type': 'audio/wav', 'Cache-Control': 'public, max-age=86400' }).send(chime);
};
