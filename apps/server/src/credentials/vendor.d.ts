// The Digital Bazaar credential libraries ship JavaScript without type declarations.
declare module "@digitalbazaar/vc";
declare module "@digitalbazaar/data-integrity";
declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
declare module "@digitalbazaar/ed25519-multikey";
declare module "@digitalbazaar/credentials-context";
declare module "@digitalbazaar/data-integrity-context";
declare module "@digitalbazaar/multikey-context";
declare module "@digitalbazaar/vc-bitstring-status-list-context";
declare module "@digitalbazaar/bitstring";
declare module "did-context";
declare module "base58-universal";
