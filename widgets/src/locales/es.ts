// The widgets' Spanish messages, loaded the first time a widget speaks Spanish (see loadLocale). In
// the built widgets this module is only the messages the widgets use, keyed as they are built (see
// localesPlugin in widgets/build.mjs); from sources it is the whole catalogue's.
import { messages } from '../../../src/shared/i18n/messages.ts';

export default messages.es;
