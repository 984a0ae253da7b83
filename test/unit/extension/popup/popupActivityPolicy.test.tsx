// @vitest-environment happy-dom
/**
 * The popup's Activity screen with policies: an activity waiting on the logged-in
 * user's vote is listed under "Waiting for your approval" with who must approve; one waiting on
 * others shows who in the history; a denial reads "Denied by policy 'name'"; a vote the policies
 * deny shows the background's POLICY_DENIED message.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeClient } from '../fakePopupClient'
import { Activity } from '@/src/extension/popup/screens/Activity'

afterEach(cleanup)

const view = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  title: `Signed a message (${id})`,
  status,
  statusText: status.endsWith('NEEDED') ? 'Waiting for approval' : status.endsWith('FAILED') ? 'Failed' : 'Done',
  fingerprint: `sha256:${id}`,
  canApprove: false,
  canReject: false,
  createdAtMs: 1_700_000_000_000,
  ...extra,
})

describe('Activity screen with policies', () => {
  it('lists what waits on my vote with who must approve, what waits on others, and denials by policy', async () => {
    const client = fakeClient({
      listActivities: () => ({
        ok: true,
        result: {
          activities: [
            view('mine', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', {
              canApprove: true,
              canReject: true,
              waitingFor: "Waiting for approval by carol or dave (policy 'two of three').",
            }),
            view('theirs', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', { waitingFor: 'Waiting for approval by the organization.' }),
            view('denied', 'ACTIVITY_STATUS_FAILED', { failure: "Denied by policy 'no exports'." }),
          ],
        },
      }),
      approveActivity: () => ({ ok: false, error: { code: 'POLICY_DENIED', message: "Denied by policy 'no exports'." } }),
    })
    render(<Activity client={client} onSessionLost={() => {}} />)
    const pending = await screen.findByRole('list', { name: 'Waiting for your approval' })
    const items = within(pending).getAllByRole('listitem')
    expect(items).toHaveLength(1)
    expect(items[0]?.textContent).toContain("Waiting for approval by carol or dave (policy 'two of three').")
    const history = screen.getByRole('list', { name: 'History' })
    expect(within(history).getByText('Waiting for approval by the organization.')).toBeTruthy()
    expect(within(history).getByText("Denied by policy 'no exports'.")).toBeTruthy()

    fireEvent.click(within(pending).getByRole('button', { name: 'Approve Signed a message (mine)' }))
    expect((await within(pending).findByRole('alert')).textContent).toBe("Denied by policy 'no exports'.")
    expect(client.calls).toContainEqual(['approveActivity', { fingerprint: 'sha256:mine' }])
  })
})
