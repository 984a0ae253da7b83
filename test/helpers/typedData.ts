/** The domain type of every fixture here: name, version, chainId, verifyingContract. */
const EIP712_DOMAIN = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/** The EIP-712 specification's "Ether Mail" example, used by signing tests across suites. */
export const MAIL_TYPED_DATA = {
  types: {
    EIP712Domain: EIP712_DOMAIN,
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const

/**
 * A Seaport-like `OrderComponents` order: `offerCount` offer items (what the
 * signer gives) before one consideration item paid to `recipient`, so that the recipient comes
 * after more than 64 rows. The message keys are in reverse order to the `types` on purpose.
 */
export function seaportOrder(offerer: string, recipient: string, offerCount = 13) {
  const offer = Array.from({ length: offerCount }, (_, i) => ({
    endAmount: '1',
    startAmount: '1',
    identifierOrCriteria: String(1000 + i),
    token: '0x1111111111111111111111111111111111111111',
    itemType: 2,
  }))
  return {
    types: {
      EIP712Domain: EIP712_DOMAIN,
      OrderComponents: [
        { name: 'offerer', type: 'address' },
        { name: 'zone', type: 'address' },
        { name: 'offer', type: 'OfferItem[]' },
        { name: 'consideration', type: 'ConsiderationItem[]' },
        { name: 'orderType', type: 'uint8' },
        { name: 'startTime', type: 'uint256' },
        { name: 'endTime', type: 'uint256' },
        { name: 'zoneHash', type: 'bytes32' },
        { name: 'salt', type: 'uint256' },
        { name: 'conduitKey', type: 'bytes32' },
        { name: 'counter', type: 'uint256' },
      ],
      OfferItem: [
        { name: 'itemType', type: 'uint8' },
        { name: 'token', type: 'address' },
        { name: 'identifierOrCriteria', type: 'uint256' },
        { name: 'startAmount', type: 'uint256' },
        { name: 'endAmount', type: 'uint256' },
      ],
      ConsiderationItem: [
        { name: 'itemType', type: 'uint8' },
        { name: 'token', type: 'address' },
        { name: 'identifierOrCriteria', type: 'uint256' },
        { name: 'startAmount', type: 'uint256' },
        { name: 'endAmount', type: 'uint256' },
        { name: 'recipient', type: 'address' },
      ],
    },
    primaryType: 'OrderComponents',
    domain: { name: 'Seaport', version: '1.6', chainId: 1, verifyingContract: '0x0000000000000068F116a894984e2DB1123eB395' },
    message: {
      counter: '0',
      conduitKey: `0x${'00'.repeat(32)}`,
      salt: '12345',
      zoneHash: `0x${'00'.repeat(32)}`,
      endTime: '1893456000',
      startTime: '1700000000',
      orderType: 0,
      consideration: [
        {
          recipient,
          endAmount: '1',
          startAmount: '1',
          identifierOrCriteria: '0',
          token: '0x0000000000000000000000000000000000000000',
          itemType: 0,
        },
      ],
      offer,
      zone: '0x0000000000000000000000000000000000000000',
      offerer,
    },
  }
}

/** An EIP-2612 `Permit` of USD Coin (domain "USD Coin", version 2, chain 1) at `verifyingContract`. */
export function usdcPermit(p: { verifyingContract: string; owner: string; spender: string; value: string; deadline: string | number }) {
  return {
    types: {
      EIP712Domain: EIP712_DOMAIN,
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: p.verifyingContract },
    message: { owner: p.owner, spender: p.spender, value: p.value, nonce: 0, deadline: p.deadline },
  }
}
