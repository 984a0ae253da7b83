/**
 * The older record of account names: per user, one name per address (`{ v: 1, users: { [org/user]:
 * { [address]: name } } }`). The account book (accountBook.ts) carries a user's names over to their
 * account groups once and drops the user's entry; nothing writes this record any more.
 */

/** Storage key of the older per-address names record. */
export const ACCOUNT_NAMES_KEY = 'sigil.accountNames'
