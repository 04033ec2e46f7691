import Joi from 'joi';

export const totpCodeBody = Joi.object<{ code: string }, true>({
  code: Joi.string().trim().max(20).required().description('the six digits the authenticator app shows now').example('307142'),
});

export const totpStatusResponse = Joi.object({
  enabled: Joi.boolean().required().description("whether the user's sign-ins ask for a TOTP code").example(false),
});

export const totpEnrolResponse = Joi.object({
  secret: Joi.string().required().description('the base32 secret, shown this once, for an app that cannot scan').example('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
  uri: Joi.string()
    .required()
    .description('the otpauth:// URI the QR code holds')
    .example('otpauth://totp/Acme:ana%40acme.example?secret=JBSWY3DPEHPK3PXP&issuer=Acme'),
  qr: Joi.string()
    .required()
    .description('the QR code of the URI, as a data: URL of an SVG image')
    .example('data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='),
});

export const totpEnabledResponse = Joi.object({ enabled: Joi.boolean().valid(true).required() });
