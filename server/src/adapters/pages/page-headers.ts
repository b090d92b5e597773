import helmet from 'helmet';

export interface PagePolicy {
  /** Where the page's forms may post: nowhere (a page without forms) or only here. */
  formAction: "'none'" | "'self'";
  referrerPolicy: 'no-referrer' | 'same-origin';
  /** Whether the page itself sends Strict-Transport-Security (else the operator's TLS front decides). */
  strictTransportSecurity: boolean;
}

/** A server-rendered page's headers: everything from this origin, no inline script, no third-party font or script, never framed. */
export const pageHeaders = (policy: PagePolicy) =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        mediaSrc: ["'self'"], // the chime of the till pages
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: [policy.formAction],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: policy.referrerPolicy },
    strictTransportSecurity: policy.strictTransportSecurity,
  });
