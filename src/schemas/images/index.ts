/**
 * The image family: its request schemas and checks (requests.ts), and the check of an edit's file
 * bytes (edit-files.ts), as the mock gateway imports them. The SDK's lazy loader takes the checks
 * from requests.ts alone (schemas/checks/images.ts): a module it reaches is wrapped to run on
 * first use, and so is everything that module imports, and the file checks run up front.
 */
export { checkEditFiles } from './edit-files.js';
export {
  imageEditAsyncSchema,
  imageEditSchema,
  imageGenerateAsyncSchema,
  imageGenerateSchema,
  isImageModel25,
  parseImageEditAsyncParams,
  parseImageEditParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
} from './requests.js';
