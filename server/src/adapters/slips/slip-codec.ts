import QRCode from 'qrcode';
import { slipVerify as slipPayloadOf } from 'promptparse/generate';
import { slipVerify as readSlipPayload } from 'promptparse/validate';
import { DomainError } from '../../domain/errors.js';
import type { SlipQr } from '../../domain/slip-verification.js';
import type { SlipCodec } from '../../ports/bank.js';
import type { DecodedImage, ImageDecoder } from './image-decoder.js';

/** The largest image taken, in bytes (decoded from its base64). */
export const MAX_SLIP_IMAGE_BYTES = 2 * 1024 * 1024;

/** A payload that promptparse reads as a slip verification QR with a good CRC (it never "fixes" a bad one). */
function slipOfPayload(payload: string): SlipQr | null {
  const slip = readSlipPayload(payload.trim(), false);
  return slip && slip.sendingBank && slip.transRef ? { sendingBank: slip.sendingBank, transRef: slip.transRef } : null;
}

const invalidSlip = (what: string) =>
  new DomainError('invalid_slip', `${what} is not a slip verification QR (sending bank and transaction reference, with a valid CRC).`);

const UNREADABLE: Record<Exclude<DecodedImage, { text: string }>['problem'], string> = {
  not_an_image: 'The image is not a PNG or JPEG.',
  too_large: 'The image is larger than 4000 x 4000 pixels; send a smaller photo of the slip.',
  undecodable: 'The image could not be decoded (a damaged PNG or JPEG).',
  no_qr: 'No QR code was found in the image; send a sharper photo with the whole slip QR in view, or its payload.',
  timed_out: 'The image took too long to read; send a smaller or sharper photo, or the slip QR payload.',
  busy: '',
};

/** Slips read with promptparse; images decoded by `decoder` (worker threads); slips drawn with qrcode as the test helper's PNG. */
export function slipCodec(decoder: ImageDecoder): SlipCodec {
  return {
    async read(input) {
      if ('payload' in input) return slipOfPayload(input.payload) ?? Promise.reject(invalidSlip('The payload'));
      if (input.image.length > MAX_SLIP_IMAGE_BYTES)
        throw new DomainError('invalid_parameters', `The image is larger than 2 MiB (${input.image.length} bytes).`, 'image');
      const decoded = await decoder.decode(input.image);
      if ('text' in decoded) return slipOfPayload(decoded.text) ?? Promise.reject(invalidSlip('The QR code in the image'));
      if (decoded.problem === 'busy') throw new DomainError('service_unavailable', 'Too many slip images are being read right now; retry in a moment.');
      throw new DomainError('slip_unreadable', UNREADABLE[decoded.problem], 'image');
    },
    async draw(slip) {
      const payload = slipPayloadOf(slip);
      const image = await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 360 });
      return { payload, image };
    },
  };
}
