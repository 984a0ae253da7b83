/**
 * An Ethereum account's EIP-7702 delegation on the selected network, under its address on the
 * home screen: nothing when it has none; "Upgraded to Sigil's batch executor" or a warning when
 * another contract acts for it; "Undelegate" asks to confirm, then the service clears it.
 */
import { useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import type { Network } from '../network'
import { Busy, ErrorLine } from '../ui'
import { useAction } from '../useAction'

type Delegation = PopupApi['delegation']['result']['delegation']

export function DelegationLine({
  client,
  network,
  address,
  onSessionLost,
}: {
  client: PopupClient
  network: Network
  address: string
  onSessionLost(): void
}) {
  const [delegation, setDelegation] = useState<Delegation | null>(null)
  const [confirming, setConfirming] = useState(false)
  const load = useAction(onSessionLost)
  const undo = useAction(onSessionLost)
  const runLoad = load.run

  useEffect(() => {
    setDelegation(null)
    void runLoad(
      () => client.call('delegation', { caip2: network.caip2, address }),
      (r) => setDelegation(r.delegation),
    )
  }, [client, runLoad, network.caip2, address])

  if (delegation === null || delegation.kind === 'none') return null
  const text =
    delegation.kind === 'sigil'
      ? "Upgraded to Sigil's batch executor"
      : delegation.kind === 'other'
        ? `Delegated to ${delegation.to} (not Sigil's batch executor)`
        : 'This address holds contract code'
  return (
    <div
      class={`delegation ${delegation.kind === 'sigil' ? '' : 'warning'}`}
      data-testid="delegation"
      aria-label={`Delegation of ${address}`}
    >
      <p class={delegation.kind === 'sigil' ? 'hint' : 'error'} data-testid="delegation-text">
        {text}
      </p>
      {delegation.kind !== 'contract' && !confirming && (
        <button type="button" disabled={undo.busy} aria-label={`Undelegate ${address}`} onClick={() => setConfirming(true)}>
          Undelegate
        </button>
      )}
      {confirming && (
        <div class="row" role="group" aria-label="Confirm undelegation">
          <p class="hint">
            Remove the delegation? Your account becomes a plain account again on {network.name} (one transaction, you pay its fee).
          </p>
          <button
            type="button"
            class="danger"
            disabled={undo.busy}
            onClick={() => {
              void undo.run(
                () => client.call('undelegate', { caip2: network.caip2, address }),
                (r) => {
                  setConfirming(false)
                  setDelegation(r.delegation)
                },
              )
            }}
          >
            Confirm undelegate
          </button>
          <button type="button" disabled={undo.busy} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <Busy busy={undo.busy} label="Undelegating…" />
      <ErrorLine error={undo.error ?? load.error} />
    </div>
  )
}
