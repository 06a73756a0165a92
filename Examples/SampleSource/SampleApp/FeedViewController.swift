import UIKit

final class FeedViewController: UIViewController {
    private let hero = UIImageView()

    override func viewDidLoad() {
        super.viewDidLoad()
        tabBarItem.image = UIImage(named: "Tab_Profile")
        hero.image = UIImage(named: "hero_banner.jpg")
    }

    func configure(_ cell: UITableViewCell) {
        // One lookup per cell: the repeated-load finding points here.
        cell.imageView?.image = UIImage(named: "placeholder")
    }

    func showEmptyFeed() {
        hero.image = UIImage(named: "empty_state")
    }
}
