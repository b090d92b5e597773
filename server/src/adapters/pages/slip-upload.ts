import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { SlipInput } from '../../ports/bank.js';

/** The largest slip photo a page takes (DECISIONS: at most 2 MiB, as the API's). */
export const MAX_SLIP_PHOTO_BYTES = 2 * 1024 * 1024;

/** What a slip form sent: its text fields, and the photo chosen (null: none; `tooLarge`: over 2 MiB, not kept). */
export interface SlipUpload {
  fields: Record<string, string>;
  photo: Buffer | null;
  tooLarge: boolean;
}

const uploads = new WeakMap<IncomingMessage, SlipUpload>();

/** The photo a slip form sent with this request, once `readSlipUpload` has read it. */
export const slipUploadOf = (req: IncomingMessage): SlipUpload | null => uploads.get(req) ?? null;

export const isMultipart = (req: IncomingMessage): boolean => /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');

/**
 * Reads a slip form (`multipart/form-data`): a few small text fields and one photo of at most 2 MiB (a form may offer
 * the camera and a file as two inputs of one name: the first one chosen is taken). Bytes beyond a photo's limit are
 * read and dropped, so the page can say so. Calls `done` once, with the fields as `req.body`, or with the reader's error.
 */
export function readSlipUpload(req: IncomingMessage & { body?: unknown }, done: (error?: unknown) => void): void {
  const upload: SlipUpload = { fields: {}, photo: null, tooLarge: false };
  let reader: busboy.Busboy;
  try {
    reader = busboy({ headers: req.headers, limits: { fields: 10, fieldSize: 4096, files: 2, fileSize: MAX_SLIP_PHOTO_BYTES, parts: 12 } });
  } catch (error) {
    return done(Object.assign(error as Error, { status: 400 })); // no boundary: a form the page cannot read
  }
  let finished = false;
  const finish = (error?: unknown) => {
    if (finished) return;
    finished = true;
    req.unpipe(reader);
    if (error) {
      req.resume(); // what is left of the body is read and dropped
      return done(Object.assign(error as Error, { status: 400 }));
    }
    uploads.set(req, upload);
    req.body = upload.fields;
    done();
  };
  reader.on('field', (name, value) => {
    if (!(name in upload.fields)) upload.fields[name] = value;
  });
  reader.on('file', (_name, stream, info) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (upload.tooLarge = true));
    stream.on('end', () => {
      const bytes = Buffer.concat(chunks);
      if (info.filename && bytes.length > 0 && !upload.photo && !(stream as { truncated?: boolean }).truncated) upload.photo = bytes;
    });
  });
  reader.on('close', () => finish());
  reader.on('error', finish);
  req.pipe(reader);
}

/**
 * The slip a form sent: its photo when one was chosen, else the QR's text pasted in `payload`; why not, otherwise
 * (nothing sent, or a photo over 2 MiB).
 */
export function slipSent(req: IncomingMessage & { body?: unknown }): SlipInput | 'nothing' | 'too_large' {
  const upload = slipUploadOf(req);
  if (upload?.tooLarge) return 'too_large';
  if (upload?.photo) return { image: upload.photo };
  const payload = (req.body as Record<string, unknown> | undefined)?.payload;
  return typeof payload === 'string' && payload.trim() !== '' ? { payload: payload.trim() } : 'nothing';
}
