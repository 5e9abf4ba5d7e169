export { forgetThisDevice } from './push-subscription';
