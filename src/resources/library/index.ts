import type { Transport } from '../../internal/transport.js';
import { Assets } from './assets.js';
import { Groups } from './groups.js';
import { ReviewTasks } from './review-tasks.js';

/** The per-account media library: groups, materials (assets) and their review tasks. */
export class Library {
  readonly groups: Groups;
  readonly assets: Assets;
  readonly reviewTasks: ReviewTasks;

  constructor(transport: Transport) {
    this.groups = new Groups(transport);
    this.assets = new Assets(transport);
    this.reviewTasks = new ReviewTasks(transport);
  }
}
