/** The real stack on real sockets lives in the shared test support (@onboarding-kit/testing/stack). */
export * from '@onboarding-kit/testing/stack';
