-- A sandbox order completed on a network the sandbox cannot deliver to: it ends NOT_DELIVERED
-- ("sandbox: nothing is delivered"), never COMPLETED.
ALTER TABLE onramp_transactions DROP CONSTRAINT onramp_transactions_status_check;
ALTER TABLE onramp_transactions ADD CONSTRAINT onramp_transactions_status_check
  CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED', 'NOT_DELIVERED'));
