-- Private keys: keys that belong to no wallet, each with its addresses (one per
-- requested format) and its private-key tags (tag ids, tags of type TAG_TYPE_PRIVATE_KEY). The key
-- is sealed under `private-key:<id>`; a disabled key signs nothing. Names are unique per
-- organization, as the hosted service refuses a second private key of one name.
CREATE TABLE private_keys (
  seq              bigserial UNIQUE,            -- creation order
  id               text PRIMARY KEY,            -- privateKeyId
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  curve            text NOT NULL,
  public_key       text NOT NULL,               -- lowercase hex, 33 bytes compressed (secp256k1, P-256) or 32 (ed25519)
  private_key_enc  text NOT NULL,
  tags             jsonb NOT NULL DEFAULT '[]',
  imported         boolean NOT NULL DEFAULT false,
  exported         boolean NOT NULL DEFAULT false,
  disabled         boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  UNIQUE (organization_id, name)
);
CREATE INDEX private_keys_org ON private_keys (organization_id, seq);

CREATE TABLE private_key_addresses (
  private_key_id   text NOT NULL REFERENCES private_keys(id) ON DELETE CASCADE,
  organization_id  text NOT NULL,
  position         integer NOT NULL,            -- order of the request's addressFormats
  format           text NOT NULL,
  address          text NOT NULL,
  PRIMARY KEY (private_key_id, position)
);
CREATE INDEX private_key_addresses_address ON private_key_addresses (organization_id, lower(address));
