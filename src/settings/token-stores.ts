// The places a context's stored token can be kept (contract section 16): the choices of `login
// --token-store` and `config migrate-token --to`, here alone so that the declarations load nothing else.
export const TOKEN_STORES = ['keyring', 'file'] as const;
export type TokenStoreName = (typeof TOKEN_STORES)[number];
