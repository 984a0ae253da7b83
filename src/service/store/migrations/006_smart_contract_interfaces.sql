-- Smart-contract interfaces: an organization's Ethereum ABIs and Solana IDLs, kept as
-- the JSON text create_smart_contract_interface was given. Several interfaces may name the same
-- address (the hosted service documents no uniqueness): revert decoding tries them newest first.
CREATE TABLE smart_contract_interfaces (
  id               text PRIMARY KEY,            -- smartContractInterfaceId
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  interface_type   text NOT NULL CHECK (interface_type IN ('SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA')),
  address          text NOT NULL,               -- smartContractAddress as given
  address_key      text NOT NULL,               -- what it is matched by: lower case (Ethereum), as given (Solana)
  interface_json   text NOT NULL,               -- the ABI or IDL as given
  label            text NOT NULL,
  notes            text NOT NULL,               -- '' when none were given
  error_selectors  text NOT NULL,               -- ABI custom-error selectors, ' 2bbdbc26 7d02a13c ' (revert decoding)
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE INDEX smart_contract_interfaces_org ON smart_contract_interfaces (organization_id, created_at);
CREATE INDEX smart_contract_interfaces_address ON smart_contract_interfaces (organization_id, interface_type, address_key);
