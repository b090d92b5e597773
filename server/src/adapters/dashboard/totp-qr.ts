import QRCode from 'qrcode';

/** The otpauth:// URI as an SVG QR code, inline in the page (nothing to fetch, nothing for the CSP to allow). */
export const totpQrSvg = (uri: string): Promise<string> => QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', width: 220 });

/** Base32 in groups of four, as people copy it into an app. */
export const groupedSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');
