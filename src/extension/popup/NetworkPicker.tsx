/** The network picker: the pinned service's networks; the choice persists in the background (chains/popupNetwork.ts). */
import { useEffect, useState } from 'preact/hooks'
import type { PopupApi } from '../protocol/popupApi'
import type { PopupClient } from './client'
import type { Network } from './network'
import { ErrorLine } from './ui'
import { useAction } from './useAction'

type View = PopupApi['networks']['result']

/** Props of {@link NetworkPicker}; `onChange` gets the selected network (first on load). */
export type NetworkPickerProps = { client: PopupClient; onChange(network: Network): void; onSessionLost(): void }

/** A labelled select of the networks. */
export function NetworkPicker({ client, onChange, onSessionLost }: NetworkPickerProps) {
  const [view, setView] = useState<View | null>(null)
  const action = useAction(onSessionLost)
  const { run } = action
  useEffect(() => {
    void run(
      () => client.call('networks'),
      (r) => {
        setView(r)
        onChange(r.selected)
      },
    )
  }, [client, run, onChange])
  if (!view) return <ErrorLine error={action.error} />
  return (
    <div class="network-picker">
      <label class="row">
        <span class="label">Network</span>
        <select
          aria-label="Network"
          value={view.selected.caip2}
          disabled={action.busy}
          onChange={(e) => {
            const caip2 = e.currentTarget.value
            void run(
              () => client.call('selectNetwork', { caip2 }),
              (r) => {
                setView(r)
                onChange(r.selected)
              },
            )
          }}
        >
          {view.networks.map((n) => (
            <option key={n.caip2} value={n.caip2}>
              {n.name}
              {n.dev ? ' (dev)' : ''}
            </option>
          ))}
        </select>
      </label>
      <ErrorLine error={action.error} />
    </div>
  )
}
