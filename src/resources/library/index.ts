import type { Transport } from '../../internal/transport.js';
import type { ResourceSettings } from '../resource.js';
import { Assets } from './assets.js';
import { Groups } from './groups.js';
import { ReviewTasks } from './review-tasks.js';

/** The per-account media library: groups, materials (assets) and their review tasks. */
export class Library {
  /** Groups of materials: create, list, read, rename, delete when empty. */
  readonly groups: Groups;
  /** Materials: submit review batches, list, read (refreshes the review), rename, delete. */
  readonly assets: Assets;
  /** Review tasks of submitted batches: read and wait. */
  readonly reviewTasks: ReviewTasks;

  /** Built by `MediaGateway`; reach it as `client.library`. */
  constructor(transport: Transport, settings?: ResourceSettings) {
    this.groups = new Groups(transport);
    this.assets = new Assets(transport);
    this.reviewTasks = new ReviewTasks(transport, settings);
  }
}
