// Log lines mask every secret a URL may carry (src/platform/app.ts maskUrl), whatever the spelling the
// query parser accepts: percent-encoded names, any case, `+` for a space, a fragment after.
import { describe, expect, it } from 'vitest';
import { maskUrl } from '../../src/platform/app.ts';

describe('maskUrl', () => {
  it.each([
    ['/?action=api.describe&tokenID=abc', '/?action=api.describe&tokenID=***'],
    ['/?action=api.describe&token%49D=abc', '/?action=api.describe&token%49D=***'],
    ['/?action=api.describe&%74okenID=abc&x=1', '/?action=api.describe&%74okenID=***&x=1'],
    ['/?TOKENID=abc', '/?TOKENID=***'],
    ['/event/email/bounce?secret=RealBounce-0123&messageID=x', '/event/email/bounce?secret=***&messageID=x'],
    ['/activity/find?eventID=3&grant=3.1700000000.sig', '/activity/find?eventID=3&grant=***'],
    ['/?action=event.email.unsubscribe&eventID=1&email=a%40b.c&sig=abc', '/?action=event.email.unsubscribe&eventID=1&email=***&sig=***'], // prettier-ignore
    ['/?action=download.file&downloadID=1&key=gbEEqmr1Ya4eVHaD2Xfcbw', '/?action=download.file&downloadID=1&key=***'], // prettier-ignore
    ['/person/signIn?username=ana%40example.com', '/person/signIn?username=***'],
    ['/event/edit?eventID=1&key=timezone', '/event/edit?eventID=1&key=timezone'], // an edit's key is no secret
    ['/checklog/checkIn?code=TICKET-1&eventID=1', '/checklog/checkIn?code=***&eventID=1'],
    ['/?onboardingToken=a&password=b&accessCode=1234', '/?onboardingToken=***&password=***&accessCode=***'],
    ['/?tokenID=abc#frag', '/?tokenID=***#frag'],
    ['/?tokenID', '/?tokenID=***'],
    ['/?token%ZZ=abc', '/?token%ZZ=abc'], // not percent-encoding: no name the parser reads as a secret
    ['/event/get?eventID=1', '/event/get?eventID=1'],
    ['/event/get', '/event/get'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});
