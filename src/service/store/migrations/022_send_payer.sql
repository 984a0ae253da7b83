-- The address that pays a send's gas and whose nonce its signed transaction takes: the gas sponsor
-- of a sponsored batch (NULL for a send paid by its own account, whose nonce is from_address's).
-- Instances choosing a sponsor's next nonce read the highest one stored for its open sends here.
ALTER TABLE send_transactions ADD COLUMN payer text;
CREATE INDEX send_transactions_open_payer ON send_transactions (caip2, payer, nonce) WHERE payer IS NOT NULL AND status = 'BROADCASTING';
