import type { MockAccount } from '../types.js';
import { newId } from './ids.js';

/** What a key resolves to: its account and, for a restricted key, the models it may use. */
export interface ResolvedKey {
  /** The account the key acts for. */
  account: MockAccount;
  /** `undefined` when the key may use every model. */
  models: readonly string[] | undefined;
}

/** The models the default restricted key may use. */
export const DEFAULT_RESTRICTED_MODELS: readonly string[] = ['vidmodel-2.0-mini', 'imgmodel-2'];

/** A fresh random key in the gateway's key format: `mgw_test_<hex>`. */
export function newApiKey(): string {
  return newId('mgw_test_', 16);
}

/**
 * The default accounts: `acct_1` with a full key and a key restricted to
 * {@link DEFAULT_RESTRICTED_MODELS}, and `acct_2` with a full key. Keys are random per call.
 */
export function defaultAccounts(): MockAccount[] {
  return [
    {
      id: 'acct_1',
      apiKey: newApiKey(),
      restrictedKey: newApiKey(),
      restrictedModels: DEFAULT_RESTRICTED_MODELS,
    },
    { id: 'acct_2', apiKey: newApiKey() },
  ];
}

/**
 * The account table: looks keys up and answers which account owns what.
 *
 * @throws Error at construction when there is no account, or two accounts share an ID or a key.
 */
export class AccountTable {
  /** Every account, in the order given. */
  readonly list: readonly MockAccount[];
  private readonly byKey = new Map<string, ResolvedKey>();

  constructor(accounts: readonly MockAccount[]) {
    if (accounts.length === 0) throw new Error('the mock gateway needs at least one account');
    const ids = new Set<string>();
    for (const account of accounts) {
      if (ids.has(account.id)) throw new Error(`duplicate mock account ID ${account.id}`);
      ids.add(account.id);
      this.addKey(account.apiKey, { account, models: undefined });
      if (account.restrictedKey) {
        this.addKey(account.restrictedKey, { account, models: account.restrictedModels ?? [] });
      }
    }
    this.list = Object.freeze([...accounts]);
  }

  /** The account and model limits of `key`, or `undefined` for an unknown key. */
  resolve(key: string): ResolvedKey | undefined {
    return this.byKey.get(key);
  }

  /** The account with this ID. @throws Error when there is none. */
  get(id: string): MockAccount {
    const account = this.list.find((a) => a.id === id);
    if (!account) throw new Error(`no mock account ${id}; known: ${this.list.map((a) => a.id).join(', ')}`);
    return account;
  }

  private addKey(key: string, resolved: ResolvedKey): void {
    if (!key) throw new Error(`mock account ${resolved.account.id} has an empty key`);
    if (this.byKey.has(key)) throw new Error(`two mock keys are equal (account ${resolved.account.id})`);
    this.byKey.set(key, resolved);
  }
}
