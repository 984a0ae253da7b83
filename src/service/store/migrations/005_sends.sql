-- Transactions Sigil signs and broadcasts. A send is written in its activity's
-- transaction (INITIALIZED); after commit the tracker builds and signs it (the signed bytes and
-- hash are stored before anything is broadcast), broadcasts it (BROADCASTING) and follows it to
-- INCLUDED or FAILED. A crash at any point resumes from the stored state: the same signed bytes
-- are rebroadcast, never a second transaction.
CREATE TABLE send_transactions (
  id               text PRIMARY KEY,            -- sendTransactionStatusId
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  activity_id      text NOT NULL,
  caip2            text NOT NULL,
  family           text NOT NULL CHECK (family IN ('evm', 'solana')),
  from_address     text NOT NULL,
  account_id       text NOT NULL,               -- the wallet account that signs
  request          text NOT NULL,               -- JSON: what to build, from the intent
  signed_tx        text,                        -- hex (EVM) or base64 (Solana), once signed
  tx_hash          text,                        -- EVM hash or Solana signature, once signed
  nonce            bigint,                      -- EVM nonce used
  status           text NOT NULL CHECK (status IN ('INITIALIZED', 'BROADCASTING', 'INCLUDED', 'FAILED')),
  error            text,                        -- JSON TxError when FAILED
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  bigint NOT NULL,
  lease_until      bigint NOT NULL DEFAULT 0,   -- a tracker holds the send until then
  block_number     bigint,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE INDEX send_transactions_open ON send_transactions (next_attempt_at) WHERE status IN ('INITIALIZED', 'BROADCASTING');
CREATE INDEX send_transactions_org ON send_transactions (organization_id, created_at);
