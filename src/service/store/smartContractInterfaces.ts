/**
 * Smart-contract interfaces: an organization's Ethereum ABIs and Solana IDLs, as the
 * JSON text they were created with. `address_key` is what an address is matched by (lower case for
 * Ethereum, as given for Solana); `error_selectors` lists an ABI's custom-error selectors so that
 * revert decoding reads only the ABIs that declare the selector it meets.
 */
import type { SmartContractInterfaceType } from '../../api/enumLists.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type SmartContractInterfaceRow = {
  id: string
  organization_id: string
  interface_type: SmartContractInterfaceType
  address: string
  address_key: string
  interface_json: string
  label: string
  notes: string
  error_selectors: string
  created_at: number
  updated_at: number
}

const num = (r: SmartContractInterfaceRow): SmartContractInterfaceRow => ({
  ...r,
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
})

/** How `error_selectors` holds selectors: each between spaces, so one is found by `strpos(' <sel> ')`. */
const selectorList = (selectors: readonly string[]) => (selectors.length > 0 ? ` ${selectors.join(' ')} ` : '')

export async function insertSmartContractInterface(
  sql: Sql,
  i: {
    id: string
    orgId: string
    type: SmartContractInterfaceType
    address: string
    addressKey: string
    json: string
    label: string
    notes: string
    errorSelectors: readonly string[]
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO smart_contract_interfaces (id, organization_id, interface_type, address, address_key, interface_json, label, notes,
       error_selectors, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [i.id, i.orgId, i.type, i.address, i.addressKey, i.json, i.label, i.notes, selectorList(i.errorSelectors), i.now],
  )
}

/**
 * How many interfaces the organization holds, counted while holding its row (`FOR UPDATE`): two
 * creates in one organization then count one after the other, never both under a limit at once.
 */
export async function countSmartContractInterfacesLocked(tx: Sql, orgId: string): Promise<number> {
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId])
  const [row] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM smart_contract_interfaces WHERE organization_id = $1', [
    orgId,
  ])
  return Number(row?.n ?? 0)
}

export async function getSmartContractInterface(sql: Sql, orgId: string, id: string): Promise<SmartContractInterfaceRow | undefined> {
  const [row] = await sql.query<SmartContractInterfaceRow>(
    'SELECT * FROM smart_contract_interfaces WHERE id = $1 AND organization_id = $2',
    [id, orgId],
  )
  return row && num(row)
}

/** The organization's interfaces, oldest first. */
export async function listSmartContractInterfaces(sql: Sql, orgId: string): Promise<SmartContractInterfaceRow[]> {
  const rows = await sql.query<SmartContractInterfaceRow>(
    'SELECT * FROM smart_contract_interfaces WHERE organization_id = $1 ORDER BY created_at, id',
    [orgId],
  )
  return rows.map(num)
}

/** Deletes one interface of the organization; false when it has none with this id. */
export async function deleteSmartContractInterface(sql: Sql, orgId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM smart_contract_interfaces WHERE id = $1 AND organization_id = $2 RETURNING id', [id, orgId])
  return rows.length > 0
}

/**
 * The organization's Ethereum ABIs that declare the custom error `selector` (8 hex digits, no 0x):
 * those for `addressKey` (the reverting contract) first, then the others; newest first within each.
 * Answers the JSON texts.
 */
export async function abisDeclaringError(sql: Sql, orgId: string, selector: string, addressKey: string | undefined): Promise<string[]> {
  const rows = await sql.query<{ interface_json: string }>(
    `SELECT interface_json FROM smart_contract_interfaces
     WHERE organization_id = $1 AND interface_type = 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' AND strpos(error_selectors, $2) > 0
     ORDER BY (address_key = $3) DESC, created_at DESC, id DESC`,
    [orgId, ` ${selector.toLowerCase()} `, addressKey ?? ''],
  )
  return rows.map((r) => r.interface_json)
}

/** The wire record (hosted OpenAPI externaldatav1SmartContractInterface), timestamps as queries give them. */
export function smartContractInterfaceToWire(row: SmartContractInterfaceRow) {
  return {
    organizationId: row.organization_id,
    smartContractInterfaceId: row.id,
    smartContractAddress: row.address,
    smartContractInterface: row.interface_json,
    type: row.interface_type,
    label: row.label,
    notes: row.notes,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  }
}

/**
 * The organization's Ethereum ABIs (JSON texts) for the contract `addressKey` (lower-case address),
 * newest first: what decodes `eth.tx` calls to that contract for policies.
 */
export async function ethereumAbisFor(sql: Sql, orgId: string, addressKey: string): Promise<string[]> {
  const rows = await sql.query<{ interface_json: string }>(
    `SELECT interface_json FROM smart_contract_interfaces
     WHERE organization_id = $1 AND interface_type = 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' AND address_key = $2
     ORDER BY created_at DESC, id DESC`,
    [orgId, addressKey],
  )
  return rows.map((r) => r.interface_json)
}

/**
 * The organization's Solana IDLs (JSON texts) for these program ids (matched as given: Solana
 * addresses are case sensitive), newest first: what decodes `solana.tx` instructions for policies.
 */
export async function solanaIdlsFor(
  sql: Sql,
  orgId: string,
  programIds: readonly string[],
): Promise<Array<{ address: string; json: string }>> {
  if (programIds.length === 0) return []
  const rows = await sql.query<{ address_key: string; interface_json: string }>(
    `SELECT address_key, interface_json FROM smart_contract_interfaces
     WHERE organization_id = $1 AND interface_type = 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' AND address_key = ANY($2::text[])
     ORDER BY created_at DESC, id DESC`,
    [orgId, [...programIds]],
  )
  return rows.map((r) => ({ address: r.address_key, json: r.interface_json }))
}
