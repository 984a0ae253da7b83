-- Finding the organizations that hold an address (list_suborgs `WALLET_ACCOUNT_ADDRESS`) across the
-- whole tree: the per-organization address indexes lead with organization_id and cannot answer it.
-- lower(address) serves both matches: hex (EVM) addresses compare in any case, other formats
-- (Solana base58) are then checked exactly on the few rows found.
CREATE INDEX wallet_accounts_address_lower ON wallet_accounts (lower(address));
CREATE INDEX private_key_addresses_address_lower ON private_key_addresses (lower(address));
