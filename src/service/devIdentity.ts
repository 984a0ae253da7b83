/**
 * The development service's identity key: `npm start` runs the service with it
 * (`SIGIL_IDENTITY_KEY=dev`), and development builds of the extension pin its public key
 * (`DEV_SERVICE_IDENTITY_KEY` in src/api/serviceIdentity.ts). It is published here on
 * purpose, like a dev chain's funded accounts: a production service refuses it.
 */
export const DEV_SERVICE_IDENTITY_PRIVATE_KEY = 'c9b7333b0cdf6f63090a8568836e826c2e36fbb0bc82ef413ac9a99a42e46f4e'
