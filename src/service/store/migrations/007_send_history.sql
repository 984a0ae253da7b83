-- Transaction history of Sigil's own sends (list_eth_transaction_history,
-- list_sol_transaction_history). When a send lands on chain (INCLUDED, or FAILED by an on-chain
-- revert or execution error) the tracker stores its block (block_number, now also for those
-- failures), the block's hash and time, the fee paid and the finality it saw. `parties` are the
-- addresses besides from_address whose history lists the send: EVM the call's `to` and the
-- recipient of an ERC-20 transfer(address,uint256), lowercase; Solana every signer and both ends
-- of each system transfer.
ALTER TABLE send_transactions ADD COLUMN block_hash text;
ALTER TABLE send_transactions ADD COLUMN block_time bigint;
ALTER TABLE send_transactions ADD COLUMN fee text;
ALTER TABLE send_transactions ADD COLUMN finality text CHECK (finality IN ('CONFIRMED', 'FINALIZED'));
ALTER TABLE send_transactions ADD COLUMN parties text[] NOT NULL DEFAULT '{}';
-- Sends recorded before: EVM parties from the stored request (a raw send stored only `to`);
-- block hash, time and fee are read from the node when their history is listed.
UPDATE send_transactions SET parties = array_remove(ARRAY[
    lower(request::jsonb->>'to'),
    CASE WHEN lower(request::jsonb->>'data') ~ '^0xa9059cbb0{24}[0-9a-f]{104}$'
      THEN '0x' || substr(lower(request::jsonb->>'data'), 35, 40) END
  ], NULL)
  WHERE family = 'evm';
CREATE INDEX send_transactions_history ON send_transactions (organization_id, caip2, block_number) WHERE block_number IS NOT NULL;
