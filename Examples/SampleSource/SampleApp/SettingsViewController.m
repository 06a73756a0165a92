#import <UIKit/UIKit.h>

@implementation SettingsViewController

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    self.iconView.image = [UIImage imageNamed:@"icon_settings"];
}

- (UIImage *)onboardingImage:(NSInteger)step {
    NSString *name = [NSString stringWithFormat:@"onboarding_step%ld@3x.png", (long)step];
    return [UIImage imageWithContentsOfFile:[[NSBundle mainBundle] pathForResource:name ofType:nil]];
}

@end
