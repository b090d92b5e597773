/** A phone's screen, as most customers open a checkout page: 390 CSS pixels wide, drawn at twice the pixels. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;
